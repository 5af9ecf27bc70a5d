// Scene graph for the renderer.
#pragma once
#include <memory>
#include <string>
#include <vector>
#include "math/vec.hpp"

namespace loom {
namespace gfx {

/// Something that can be drawn.
class Drawable {
public:
    virtual ~Drawable() = default;
    virtual void draw(Canvas &c) const = 0;
    virtual std::string name() const = 0;
};

struct Color {
    float r, g, b;
    static Color gray(float v) { return Color{v, v, v}; }
};

/**
 * A node in the scene tree.
 */
class Node : public Drawable, protected Observable<Node> {
public:
    explicit Node(std::string name);
    void draw(Canvas &c) const override;
    std::string name() const override { return name_; }
    void add(std::unique_ptr<Node> child);

private:
    void layout();
    std::string name_;
    std::vector<std::unique_ptr<Node>> children_;
};

template <typename T>
T clamp(T v, T lo, T hi) {
    return std::max(lo, std::min(v, hi));
}

enum class Blend { Normal, Multiply };

using NodePtr = std::unique_ptr<Node>;

Node::Node(std::string name) : name_(std::move(name)) {}

// draw paints the node and then its children.
void Node::draw(Canvas &c) const {
    c.push();
    for (const auto &ch : children_) {
        ch->draw(c);
    }
    c.fill(Color::gray(clamp(0.5f, 0.0f, 1.0f)));
    c.pop();
}

void Node::add(std::unique_ptr<Node> child) {
    children_.push_back(std::move(child));
    notify(*this);
    layout();
}

static int frames = 0;

}  // namespace gfx
}  // namespace loom
